import { useMemo } from "preact/hooks";
import { encode } from "uqr";
import "./qr-code.css";

interface QrCodeProps {
  /** What the code holds (an `otpauth://` URI); never shown as text, nor sent anywhere. */
  value: string;
  /** Its accessible name: what it is for, not what it holds. */
  label: string;
}

/** The quiet zone around the code, in modules: the 4 the QR standard asks for. */
const QUIET = 4;

/**
 * A QR code drawn as one SVG path, in the page itself: the value never leaves the browser (no
 * image service, no data URL in a log). Dark modules on a white square whatever the theme, as
 * scanners expect; error correction M (15%), enough for a screen photographed at an angle.
 */
export function QrCode({ value, label }: QrCodeProps) {
  const { size, path } = useMemo(() => {
    const qr = encode(value, { ecc: "M", border: QUIET });
    let d = "";
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      });
    });
    return { size: qr.size, path: d };
  }, [value]);
  return (
    <svg
      class="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
