import { render } from "preact";
import { startLive } from "./api/live.ts";
import { App } from "./app.tsx";
import "./styles.css";

startLive();
const root = document.getElementById("app");
if (root) render(<App />, root);
