// Toasts and the confirmation dialog of both web UIs: each app mounts `<Toasts />` and `<ConfirmHost />` once.
import { useEffect, useRef } from "preact/hooks";
import { createStore, useStore } from "../store.ts";
import { UI } from "../strings.ts";

interface Toast {
  id: number;
  kind: "ok" | "error";
  text: string;
}

const toasts = createStore<Toast[]>([]);
let nextId = 1;

function push(kind: Toast["kind"], text: string): void {
  const toast = { id: nextId++, kind, text };
  toasts.set((list) => [...list.slice(-4), toast]);
  // Errors stay until dismissed: a failed request must not vanish before it is read.
  if (kind === "ok") setTimeout(() => dismiss(toast.id), 4000);
}

function dismiss(id: number): void {
  toasts.set((list) => list.filter((t) => t.id !== id));
}

export const notify = {
  ok: (text: string) => push("ok", text),
  error: (error: unknown, what?: string) => {
    const message = error instanceof Error ? error.message : String(error);
    push("error", what ? `${UI.failed(what)}: ${message}` : message);
  },
};

/** Runs an action and reports its outcome; resolves to the result, or undefined when it failed (already shown). */
export async function attempt<T>(what: string, action: () => Promise<T>, okText?: string): Promise<T | undefined> {
  try {
    const result = await action();
    if (okText) notify.ok(okText);
    return result;
  } catch (error) {
    notify.error(error, what);
    return undefined;
  }
}

export function Toasts() {
  const list = useStore(toasts);
  return (
    <div class="toasts">
      <div aria-live="polite" class="toast-region">
        {list
          .filter((t) => t.kind === "ok")
          .map((t) => (
            <div key={t.id} class="toast toast-ok" role="status">
              <span>{t.text}</span>
            </div>
          ))}
      </div>
      <div aria-live="assertive" class="toast-region">
        {list
          .filter((t) => t.kind === "error")
          .map((t) => (
            <div key={t.id} class="toast toast-error" role="alert" data-testid="toast-error">
              <span>{t.text}</span>
              <button type="button" class="btn btn-small btn-plain" onClick={() => dismiss(t.id)}>
                {UI.dismiss}
              </button>
            </div>
          ))}
      </div>
    </div>
  );
}

interface ConfirmRequest {
  title: string;
  text: string;
  confirmLabel: string;
  danger: boolean;
  resolve: (ok: boolean) => void;
}

const confirmStore = createStore<ConfirmRequest | null>(null);

/** Asks in a modal dialog; resolves true when confirmed. */
export function confirmDialog(options: {
  title: string;
  text: string;
  confirmLabel?: string;
  danger?: boolean;
}): Promise<boolean> {
  return new Promise((resolve) => {
    confirmStore.get()?.resolve(false);
    confirmStore.set({
      title: options.title,
      text: options.text,
      confirmLabel: options.confirmLabel ?? UI.confirm,
      danger: options.danger ?? false,
      resolve,
    });
  });
}

export function ConfirmHost() {
  const request = useStore(confirmStore);
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (request && !dialog.open) {
      returnFocus.current = document.activeElement;
      dialog.showModal();
    } else if (!request && dialog.open) dialog.close();
  }, [request]);
  const answer = (ok: boolean) => {
    request?.resolve(ok);
    confirmStore.set(null);
    (returnFocus.current as HTMLElement | null)?.focus?.();
  };
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      onCancel={() => answer(false)}
    >
      {request ? (
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            answer(true);
          }}
        >
          <h2 id="confirm-title">{request.title}</h2>
          <p id="confirm-text">{request.text}</p>
          <div class="dialog-actions">
            <button type="button" class="btn" onClick={() => answer(false)} autofocus>
              {UI.cancel}
            </button>
            <button type="submit" class={`btn ${request.danger ? "btn-danger" : "btn-primary"}`}>
              {request.confirmLabel}
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
