// The map page's legend, from the pipeline's palette.
import { PALETTE } from "../src/resolve/style.js";

/** The legend, from the pipeline's palette: one colour changes in one place only. */
export function legend(): HTMLElement[] {
  return [
    ...Object.values(PALETTE).map((p) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      const [r, g, b] = p.rgb;
      sw.style.background = `rgba(${r}, ${g}, ${b}, ${Math.max(p.fillOpacity, 0.05)})`;
      sw.style.borderColor = `rgb(${r}, ${g}, ${b})`;
      if (p.lineDasharray.length) sw.style.borderStyle = "dashed";
      li.append(sw, p.label);
      return li;
    }),
    ...[
      ["May be active: no fresh source says (dotted outline)", "dotted"],
      ["Active by default: nothing says when (long dashes)", "dashed"],
      ["Not active today (faded; active at the chosen time: stronger fill)", "solid"],
    ].map(([label, style]) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.borderStyle = style!;
      sw.style.borderColor = style === "solid" ? "rgba(82,82,91,0.4)" : "#52525b";
      li.append(sw, label!);
      return li;
    }),
  ];
}
