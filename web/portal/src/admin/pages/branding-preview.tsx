import { useEffect, useRef, useState } from "preact/hooks";
import type { PublicBranding, PublicServer } from "../../api/public-types.ts";
import { SignupLayout } from "../../public/layout.tsx";
import { SignupForm } from "../../public/signup-form.tsx";
import { SignupSuccess } from "../../public/success.tsx";
import { A } from "../../strings/admin.ts";

/** The sizes the preview lays the page out at: a small laptop screen and a common phone. */
const FRAMES = { desktop: { width: 1024, height: 720 }, phone: { width: 390, height: 760 } } as const;

/**
 * The live preview: the public page's own components (SignupLayout, SignupForm, SignupSuccess) with the draft, in a
 * frame the admin can switch between desktop and phone width, light and dark, form and success page. Nothing in
 * it sends requests.
 */
export function BrandingPreview({ branding, serverName }: { branding: PublicBranding; serverName: string }) {
  const [width, setWidth] = useState<"desktop" | "phone">("desktop");
  const stage = useRef<HTMLDivElement>(null);
  const [stageWidth, setStageWidth] = useState(0);
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setStageWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // The page is laid out at the real size (so the layout switches exactly as for visitors) and scaled to fit.
  const frame = FRAMES[width];
  const scale = stageWidth > 0 ? Math.min(1, stageWidth / frame.width) : 1;
  const [scheme, setScheme] = useState<"light" | "dark">("light");
  const [view, setView] = useState<"form" | "success">("form");
  const server: PublicServer = {
    id: "preview",
    kind: "synapse",
    name: serverName,
    slug: "preview",
    serverName,
    publicUrl: `https://matrix.${serverName}`,
    brandingProfileId: null,
  };
  // "auto" follows the visitor's device; the preview shows whichever scheme the admin picks.
  const shown: PublicBranding = branding.colorScheme === "auto" ? { ...branding, colorScheme: scheme } : branding;
  const segmented = <T extends string>(label: string, value: T, options: [T, string][], set: (value: T) => void) => (
    <fieldset class="segmented">
      <legend class="visually-hidden">{label}</legend>
      {options.map(([key, text]) => (
        <button key={key} type="button" class="btn btn-small" aria-pressed={value === key} onClick={() => set(key)}>
          {text}
        </button>
      ))}
    </fieldset>
  );
  return (
    <div class="preview" data-testid="branding-preview">
      <div class="preview-toolbar">
        {segmented(
          A.branding.previewWidth,
          width,
          [
            ["desktop", A.branding.desktop],
            ["phone", A.branding.phone],
          ],
          setWidth,
        )}
        {branding.colorScheme === "auto"
          ? segmented(
              A.branding.previewScheme,
              scheme,
              [
                ["light", A.branding.light],
                ["dark", A.branding.dark],
              ],
              setScheme,
            )
          : null}
        {segmented(
          A.branding.previewPage,
          view,
          [
            ["form", A.branding.formPage],
            ["success", A.branding.successPage],
          ],
          setView,
        )}
      </div>
      <div class="preview-stage" ref={stage} style={{ height: `${Math.round(frame.height * scale)}px` }}>
        <section
          class={`su-frame preview-frame preview-${width}`}
          aria-label={A.branding.previewLabel}
          style={{
            width: `${frame.width}px`,
            height: `${frame.height}px`,
            transform: `scale(${scale})`,
            left: `${Math.max(0, (stageWidth - frame.width * scale) / 2)}px`,
          }}
        >
          <SignupLayout branding={shown} preview intro={view === "form"}>
            {view === "form" ? (
              <SignupForm server={server} branding={shown} initialToken="" preview />
            ) : (
              <SignupSuccess userId={`@alice:${serverName}`} server={server} branding={shown} preview />
            )}
          </SignupLayout>
        </section>
      </div>
    </div>
  );
}
