import { useState } from "preact/hooks";
import { copyText } from "./clipboard.ts";

/**
 * Copies a text and says so: `copied` is true for two seconds after a copy that worked. A refused copy rejects, for
 * the caller to decide what it means (a toast in the panels; nothing on the sign-up page, where the value is on screen).
 */
export function useCopy(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const copy = async (text: string) => {
    await copyText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return { copied, copy };
}
