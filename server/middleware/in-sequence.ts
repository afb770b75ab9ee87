import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The handlers run one after the other as one middleware: what Express would do with a layer
 * each, without its matching and bookkeeping per layer (measured: more allocation than the
 * steps every request passes through make themselves). A handler that answers and does not
 * call `next` ends the sequence; an error (passed, thrown or rejected) goes to the app's error handlers.
 */
export function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  return function runInSequence(request: Request, response: Response, next: NextFunction): void {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) {
        next(error);
        return;
      }
      const handler = handlers[index];
      index += 1;
      if (!handler) {
        next();
        return;
      }
      try {
        const result: unknown = handler(request, response, step);
        // An async handler's rejection goes on as an error (as Express does), never unhandled.
        if (result instanceof Promise) result.catch(step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
