import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { notify } from "../../../common/components/notify.tsx";
import { downloadFile } from "../../../common/http.ts";

/** A button that downloads `path`, showing a failure (404, 401, hub away) instead of saving an error page. */
export function DownloadButton({
  path,
  fileName,
  what,
  primary = false,
  testId,
  children,
}: {
  path: string;
  fileName: string;
  what: string;
  primary?: boolean;
  testId?: string;
  children: ComponentChildren;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class={`btn ${primary ? "btn-primary" : ""}`}
      disabled={busy}
      data-testid={testId}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadFile(path, fileName);
        } catch (error) {
          notify.error(error, what);
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
    </button>
  );
}
