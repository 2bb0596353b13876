import { render } from "preact";
import { loadLanguage } from "./i18n.ts";
import "./styles.css";

// The language first: the app's modules read `S` as they load, so they are imported once it holds the translation.
loadLanguage()
  .then(() => Promise.all([import("./app.tsx"), import("./api/live.ts")]))
  .then(([{ App }, { startLive }]) => {
    startLive();
    const root = document.getElementById("app");
    if (root) render(<App />, root);
  });
