import { useMemo } from "preact/hooks";
import { qrMatrix, qrPath, qrSide } from "../../../common/qr.ts";

/**
 * A QR code as an SVG: dark modules on a white field with a quiet zone, whatever the theme (scanners need the
 * contrast). Drawn by the same code as the portal's invite QR codes (web/common/qr.ts), so both scan alike.
 */
export function QrCode({ value, label, size = 220 }: { value: string; label: string; size?: number }) {
  const { path, dimension } = useMemo(() => {
    const qr = qrMatrix(value);
    return { path: qrPath(qr), dimension: qrSide(qr) };
  }, [value]);
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${dimension} ${dimension}`}
      shape-rendering="crispEdges"
      data-qr={value}
    >
      <rect width={dimension} height={dimension} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
