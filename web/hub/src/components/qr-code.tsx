import { useMemo } from "preact/hooks";
import { encode } from "uqr";

/**
 * A QR code as an SVG: dark modules on a white field with a quiet zone, whatever the theme (scanners need the
 * contrast). One path, one horizontal run per rect, so it stays crisp at any size.
 */
export function QrCode({ value, label, size = 220 }: { value: string; label: string; size?: number }) {
  const { path, dimension } = useMemo(() => {
    const qr = encode(value, { ecc: "M", border: 0 });
    let d = "";
    qr.data.forEach((row, y) => {
      let x = 0;
      while (x < row.length) {
        if (!row[x]) {
          x++;
          continue;
        }
        const start = x;
        while (x < row.length && row[x]) x++;
        d += `M${start + 4} ${y + 4}h${x - start}v1h-${x - start}z`;
      }
    });
    return { path: d, dimension: qr.size + 8 };
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
