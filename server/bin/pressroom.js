#!/usr/bin/env node
// The operator CLI. Runs the compiled server (npm run build, done by npm ci / npm start).
import { main } from "../dist/cli/main.js";

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
