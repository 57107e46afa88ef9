/**
 * The graph tab's static sigma settings, shared with the rendering bench (apps/web/bench) so the bench draws
 * exactly what the tab draws. Above 2,000 nodes edges and labels are left out while the view moves: with a
 * software WebGL fallback (no GPU) or on a small laptop, that keeps panning smooth at 10,000+ nodes.
 */
export const LARGE_GRAPH = 2000;

export function graphViewSettings(order: number) {
  const large = order > LARGE_GRAPH;
  return {
    hideEdgesOnMove: large,
    hideLabelsOnMove: large,
    labelRenderedSizeThreshold: large ? 10 : 6,
    labelDensity: 0.4,
    zIndex: true,
  };
}
