/**
 * The clock every module of the Monitoring API reads the time from: server-kit's `Clock`, the one
 * type both services share (milliseconds since the UNIX epoch; `Date.now` in production, tests
 * pass a fixed clock).
 */
export type { Clock } from '@ctss/server-kit';
