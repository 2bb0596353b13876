import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";

/** A disclosure button with a panel of less-used actions; Escape or a click outside closes it. */
export function MoreMenu({ label, children }: { label: string; children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  // Any action inside closes the panel once clicked.
  useEffect(() => {
    const panel = panelRef.current;
    const close = (event: Event) => {
      if ((event.target as Element).closest("button, a")) setOpen(false);
    };
    panel?.addEventListener("click", close);
    return () => panel?.removeEventListener("click", close);
  }, []);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: Event) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div class="more" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        class="btn more-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      <div id={id} class="more-panel" hidden={!open} ref={panelRef}>
        {children}
      </div>
    </div>
  );
}
