// The cascade, from the general to the particular: the global tokens and reset, the page layout,
// the controls and notices every screen uses; then each component's and feature's own sheet, as
// its module loads (through the app's imports below).
import "./styles.css";
import "./layout.css";
import "./components/controls.css";
import "./components/notices.css";
import { render } from "preact";
import { App } from "./app.js";

const root = document.getElementById("app");
if (root) render(<App />, root);
