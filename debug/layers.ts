/** What the debug view can draw, each toggled on its own, with its colour. */

export interface LayerInfo {
  key: LayerKey;
  label: string;
  /** Swatch colour in the panel (0xRRGGBB). */
  color: number;
  /** Shown when the page opens. */
  visible: boolean;
}

export type LayerKey = 'floor' | 'boxes' | 'spheres' | 'capsules' | 'hitboxes' | 'characterBoxes' | 'contacts' | 'rays';

/** Rays that hit a hitbox; rays that missed are drawn in RAY_MISS_COLOR. */
export const RAY_HIT_COLOR = 0xff5555;

export const LAYERS: readonly LayerInfo[] = [
  { key: 'floor', label: 'mesh floor', color: 0x3d5c7a, visible: true },
  { key: 'boxes', label: 'boxes', color: 0xff9933, visible: true },
  { key: 'spheres', label: 'spheres', color: 0x33ccff, visible: true },
  { key: 'capsules', label: 'capsules', color: 0x66dd66, visible: true },
  { key: 'hitboxes', label: 'bone hitboxes', color: 0xffdd33, visible: true },
  { key: 'characterBoxes', label: 'character AABBs', color: 0x888888, visible: false },
  { key: 'contacts', label: 'contacts', color: 0xff3366, visible: true },
  { key: 'rays', label: 'rays', color: RAY_HIT_COLOR, visible: true },
];

/** Hitbox colour per hit group (head, torso, arms, legs, tail, other). */
export const HIT_GROUP_COLORS: readonly number[] = [0xff4444, 0xffdd33, 0xcc66ff, 0x3399ff, 0xff8800, 0xaaaaaa];
export const CONTACT_POINT_COLOR = 0xffff00;
export const RAY_MISS_COLOR = 0x555555;
export const RAY_HIT_POINT_COLOR = 0xffffff;
