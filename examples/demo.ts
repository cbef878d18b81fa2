/**
 * `npm start`: the headless demo scene (scenes/demo.ts) with 300 moving boxes, spheres and
 * capsules over a static mesh floor, four procedural humanoids and the Fox walking through them,
 * and rays shot at the characters every frame. Prints, per simulated second (60 frames): the
 * pairs that began and ended touching, which bones of the characters touch bodies now, the rays
 * that hit which character and bone, the time per system, and a few shots checked 100 ms in the
 * past (lag compensation: what they hit then against what they hit now), and a sword swung through
 * a character in one frame (a melee sweep against the hitboxes moving over that frame).
 */
import { HIT_GROUP_NAMES } from '../src/character/hitGroups';
import { createDemoScene } from '../scenes/demo';
import { loadFoxNode } from '../scenes/loadFoxNode';
import { createHitboxHistory, hitboxesAt, recordHitboxHistory } from '../src/character/hitboxHistory';
import { createHitboxRayHit, raycastHitboxes, raycastHitboxesAt } from '../src/character/hitboxRaycast';
import { createRayQuery, setRay } from '../src/query/rayQuery';
import { beginHitboxMotionAt, createHitboxMotion, finishHitboxMotion } from '../src/character/hitboxMotion';
import { createHitboxSweepHits, createSweepQuery, setSweepObb, sweepHitboxesAll } from '../src/character/hitboxSweep';

const SECONDS = 5;
const FRAMES_PER_SECOND = 60;
const EXAMPLES = 6;
/** How far in the past the rewound shots are fired, seconds; the history keeps 64 frames (about a second). */
const LATENCY = 0.1;
const REWOUND_SHOTS = 3;

const scene = createDemoScene({ seed: 7, extraCharacters: [await loadFoxNode()] });
const { pipeline, rays } = scene;
const list = (items: string[]) => `${items.slice(0, EXAMPLES).join(', ')}${items.length > EXAMPLES ? ', ...' : ''}`;
const pair = (a: number, b: number) => `${scene.label(a)}-${scene.label(b)}`;

// Lag compensation: the last 64 frames of the characters' hitboxes, each at its frame's time.
const history = createHitboxHistory(64);
const pastBoxes = new Float64Array(15 * scene.hitboxes.count);
const rewoundShot = createRayQuery(), rewoundHit = createHitboxRayHit(), nowHit = createHitboxRayHit();
// Melee: a sword swung half a circle in one frame through the first character's hips, against
// every character's hitboxes moving over that frame (the history's two newest frames).
const motion = createHitboxMotion(), swing = createSweepQuery(), swingHits = createHitboxSweepHits(4);
const blade = new Float64Array(30);
const hitName = (hit: typeof nowHit) => `${scene.characterName[hit.character]} ${hit.boneName} (${hit.groupName})`;

console.log(`${scene.bodies.count} bodies, characters: ${scene.characterName.join(', ')} (${scene.hitboxes.count} hitboxes), ${rays.origin.length / 3} rays per frame`);
for (let second = 1; second <= SECONDS; second++) {
  const began: string[] = [], ended: string[] = [], hits: string[] = [];
  const hitsPerCharacter = new Map<string, number>();
  const ms = { refitVolumes: 0, boneHitboxes: 0, broadPhase: 0, narrowPhase: 0, rays: 0 };
  let shot = 0;
  for (let frame = 0; frame < FRAMES_PER_SECOND; frame++) {
    scene.step();
    recordHitboxHistory(history, scene.hitboxes, scene.frame / FRAMES_PER_SECOND);
    const { begin, end } = pipeline.events;
    for (let k = 0; k < begin.count; k++) began.push(pair(begin.a[k], begin.b[k]));
    for (let k = 0; k < end.count; k++) ended.push(pair(end.a[k], end.b[k]));
    for (let r = 0; r < rays.count; r++) {
      shot++;
      if (rays.hitbox[r] < 0) continue;
      const who = scene.characterName[rays.character[r]];
      hitsPerCharacter.set(who, (hitsPerCharacter.get(who) ?? 0) + 1);
      hits.push(`${who} ${scene.boneName[rays.bone[r]]} (${HIT_GROUP_NAMES[rays.group[r]]})`);
    }
    for (const key of ['refitVolumes', 'boneHitboxes', 'broadPhase', 'narrowPhase'] as const) ms[key] += pipeline.timings[key];
    ms.rays += scene.rayMs;
  }
  const perFrame = (x: number) => (x / FRAMES_PER_SECOND).toFixed(3);
  console.log(`second ${second}: ${began.length} began, ${ended.length} ended, ${pipeline.touchingPairs.count} touching, ${pipeline.contacts.count} contacts now`);
  console.log(`  began: ${list(began)}`);
  console.log(`  ended: ${list(ended)}`);
  const touches: string[] = [];
  const { hitboxPairs, characters } = pipeline;
  for (let k = 0; k < hitboxPairs.count; k++) {
    const h = hitboxPairs.hitboxA[k] >= 0 ? hitboxPairs.hitboxA[k] : hitboxPairs.hitboxB[k];
    const other = hitboxPairs.hitboxA[k] >= 0 ? hitboxPairs.b[k] : hitboxPairs.a[k];
    const hb = characters!.hitboxes;
    touches.push(`${scene.characterName[hb.character[h]]} ${scene.boneName[hb.bone[h]]} touches ${scene.label(other)}`);
  }
  console.log(`  character bones touching now: ${hitboxPairs.count}${touches.length ? `; e.g. ${list(touches)}` : ''}`);
  const counts = scene.characterName.map((who) => `${who} ${hitsPerCharacter.get(who) ?? 0}`).join(', ');
  console.log(`  rays: ${hits.length} of ${shot} hit${counts ? ` (${counts})` : ''}; e.g. ${list(hits)}`);
  console.log(
    `  ms/frame: refit ${perFrame(ms.refitVolumes)}, bone hitboxes ${perFrame(ms.boneHitboxes)}, broad ${perFrame(ms.broadPhase)}, ` +
      `narrow ${perFrame(ms.narrowPhase)}, rays ${perFrame(ms.rays)}`,
  );
  // Shots fired LATENCY ago from this frame's ray origins at a hitbox centre as it was then.
  const firedAt = history.newestTime - LATENCY;
  hitboxesAt(pastBoxes, history, scene.hitboxes, firedAt);
  const rewound: string[] = [];
  for (let k = 0; k < REWOUND_SHOTS; k++) {
    const h = (second * 7919 + k * 104729) % scene.hitboxes.count;
    const o = rays.origin;
    setRay(rewoundShot, o[3 * k], o[3 * k + 1], o[3 * k + 2], pastBoxes[15 * h] - o[3 * k], pastBoxes[15 * h + 1] - o[3 * k + 1], pastBoxes[15 * h + 2] - o[3 * k + 2]);
    rewoundShot.maxDistance = 2 * Math.hypot(rewoundShot.direction[0], rewoundShot.direction[1], rewoundShot.direction[2]);
    const then = raycastHitboxesAt(rewoundHit, history, scene.hitboxes, rewoundShot, firedAt) ? hitName(rewoundHit) : 'nothing';
    const now = raycastHitboxes(nowHit, scene.hitboxes, scene.rayGrid, rewoundShot) ? hitName(nowHit) : 'nothing';
    rewound.push(`at ${scene.characterName[scene.hitboxes.character[h]]} ${scene.hitboxes.boneName[h]}: ${then} then, ${now} now`);
  }
  console.log(`  shots fired ${LATENCY * 1000} ms ago, checked at that time: ${rewound.join('; ')}`);
  beginHitboxMotionAt(motion, history, scene.hitboxes, history.newestTime - 1 / FRAMES_PER_SECOND);
  finishHitboxMotion(motion, scene.hitboxes);
  const hips = 15 * scene.hitboxes.firstHitbox[0], w = scene.hitboxes.world;
  // Sized by the hips box (the demo's characters are scaled): a blade 2.4 hips-sizes long, its
  // centre 2.5 hips-sizes away, turning half a circle about the vertical.
  const r = Math.hypot(w[hips + 12], w[hips + 13], w[hips + 14]);
  for (let e = 0; e < 2; e++) {
    const c = Math.cos(Math.PI * e), s = Math.sin(Math.PI * e);
    blade.set([w[hips] + 2.5 * r * c, w[hips + 1], w[hips + 2] + 2.5 * r * s, c, 0, s, 0, 1, 0, -s, 0, c, 1.2 * r, 0.01 * r, 0.05 * r], 15 * e);
  }
  setSweepObb(swing, blade, 0, blade, 15);
  const swung = sweepHitboxesAll(swingHits, scene.hitboxes, motion, swing);
  const struck = swingHits.slice(0, swung).map((h) => `${scene.characterName[h.character]} ${h.boneName} (${h.groupName}) at t = ${h.t.toFixed(2)}`);
  console.log(`  a sword swung through ${scene.characterName[0]}'s hips in one frame hits ${swung ? struck.join('; ') : 'nothing'}`);
}
