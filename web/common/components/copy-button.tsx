import { useState } from "preact/hooks";
import { copyText } from "../clipboard.ts";
import { UI } from "../strings.ts";
import { notify } from "./notify.tsx";

/** Copies `text`; the label says "Copied" for two seconds. `label` is the accessible name (what is copied). */
export function CopyButton({
  text,
  label,
  children,
  testId,
}: {
  text: string;
  label: string;
  children?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="btn btn-small"
      aria-label={label}
      data-testid={testId}
      onClick={async () => {
        try {
          await copyText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          notify.error(UI.copyFailed);
        }
      }}
    >
      {copied ? UI.copied : (children ?? UI.copy)}
    </button>
  );
}
