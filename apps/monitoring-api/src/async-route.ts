/** Adapts an async express handler so its rejection reaches the problem handler (no floating promises). */
import type { NextFunction, Request, Response } from 'express';

/** An async route handler. */
export type AsyncHandler = (req: Request, res: Response) => Promise<void>;

/** Wraps `handler`; a rejection is passed to `next` and so becomes a problem response. */
export function asyncRoute(handler: AsyncHandler) {
  return (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch(next);
  };
}
