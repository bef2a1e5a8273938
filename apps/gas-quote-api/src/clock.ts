/** The clock every module of the Gas Quote API reads the time from. */

/**
 * Current time, milliseconds since the UNIX epoch (`Date.now` in production; tests pass a
 * settable clock).
 */
export type Clock = () => number;
