import { render } from "preact";

// Placeholder page until the portal UI issue.
function App() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "1.5rem" }}>
      <h1>Create your Matrix account</h1>
      <p>The registration portal is running.</p>
    </main>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);
