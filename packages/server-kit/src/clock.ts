/**
 * The clock type of every service (docs/architecture.md "Packages and what they own"): both apps
 * and the rate-limit store read the time through it, so tests can pass a fixed or settable clock.
 */

/**
 * Current time, milliseconds since the UNIX epoch (`Date.now` in production; tests pass a fixed or
 * settable clock).
 */
export type Clock = () => number;
