/**
 * Copies text to the clipboard: the Clipboard API in a secure context, else the old `execCommand` way, which still
 * works inside a user gesture on plain HTTP (a portal or ingress without TLS). Throws when neither works.
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy refused");
}

/** Saves `content` as a file named `name` (generated in the browser, so nothing is fetched again). */
export function saveText(name: string, content: string, type = "text/plain"): void {
  saveBlob(name, new Blob([content], { type: `${type};charset=utf-8` }));
}

/** Hands `blob` to the browser's download as a file named `name`. */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the download may not have read the blob yet.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
