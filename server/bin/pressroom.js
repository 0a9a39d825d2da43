#!/usr/bin/env node
// The operator CLI. Runs the compiled server (npm run build, done by npm ci / npm start).
import module from "node:module";

// Node's compile cache (README, "Production"): V8's compiled code of every module this process
// loads is kept on disk and reused by the next start or command, instead of compiling them again.
// In the OS temp directory unless NODE_COMPILE_CACHE names one; NODE_DISABLE_COMPILE_CACHE=1
// turns it off. Before the first import of the server, so that it covers all of it.
module.enableCompileCache?.();

const { main } = await import("../dist/cli/main.js");
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
