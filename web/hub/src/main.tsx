import { render } from "preact";
import { useEffect, useState } from "preact/hooks";

interface Health {
  status: string;
  version: string;
  demo?: boolean;
  services: { homeAssistant: { connected: boolean } };
}

// Placeholder panel until the UI issue: shows that the hub answers, through relative URLs only.
function App() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch("api/health")
      .then((response) => response.json() as Promise<Health>)
      .then(setHealth, (e: unknown) => setError(String(e)));
  }, []);
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "1.5rem" }}>
      <h1>Matter Hub {health?.demo ? <span data-testid="demo-badge">DEMO</span> : null}</h1>
      {error ? <p role="alert">Cannot reach the hub: {error}</p> : null}
      {health ? (
        <p data-testid="status">
          Version {health.version}, status {health.status}, Home Assistant{" "}
          {health.services.homeAssistant.connected ? "connected" : "not connected"}
        </p>
      ) : (
        <p>Loading…</p>
      )}
    </main>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);
