import { useState } from "preact/hooks";
import { S } from "../strings.ts";
import { notify } from "./notify.tsx";

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Plain-HTTP ingress (no secure context): the old way still works inside a user gesture.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error(S.common.copyFailed);
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="btn btn-small"
      aria-label={label}
      onClick={async () => {
        try {
          await copyText(text);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          notify.error(S.common.copyFailed);
        }
      }}
    >
      {copied ? S.common.copied : S.common.copy}
    </button>
  );
}
