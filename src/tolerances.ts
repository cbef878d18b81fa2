/**
 * Tolerances shared by several kernels, each named once with its unit and the reason for its
 * value. (Tolerances that belong to one kernel's test stay next to it, named and documented the
 * same way: SAT_AXIS_SLACK in sat.ts, HULL_RELATIVE_TOLERANCE in quickhull.ts, ...)
 */

/**
 * Rounding carried by coordinates and by differences of coordinates, in units of the largest
 * |coordinate| involved: far from the origin the inputs themselves carry that much error, whatever
 * the extent of the set, so size-relative tolerances add this much of the coordinates' magnitude.
 * 16 ulps: a few roundings of a dot product or a projection, with room to spare.
 */
export const ROUNDING_ALLOWANCE = 16 * Number.EPSILON;
