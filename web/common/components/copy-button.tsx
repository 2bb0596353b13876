import { UI } from "../strings.ts";
import { useCopy } from "../use-copy.ts";
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
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      class="btn btn-small"
      aria-label={label}
      data-testid={testId}
      onClick={() => copy(text).catch(() => notify.error(UI.copyFailed))}
    >
      {copied ? UI.copied : (children ?? UI.copy)}
    </button>
  );
}
