import { createServer, IncomingMessage, ServerResponse, type Server, type ServerOptions } from 'node:http';
import type { Application } from 'express';

type Constructor = new (...args: never[]) => object;

/**
 * A constructor that runs `base` on instances born with `prototype`. `base.call(this)` rather
 * than Reflect.construct: measured, V8 builds objects several times slower through the latter.
 */
function bornWith(base: Constructor, prototype: object): Constructor {
  const initialize = base as unknown as (this: object, ...args: unknown[]) => void;
  function Born(this: object, ...args: unknown[]): void {
    initialize.apply(this, args);
  }
  Born.prototype = prototype;
  return Born as unknown as Constructor;
}

/** Node's http classes are plain constructor functions, which can run on an existing object. */
const isPlainFunction = (candidate: Constructor): boolean => !Function.prototype.toString.call(candidate).startsWith('class');

/**
 * The HTTP server of an Express app, with each request and response created with the app's
 * own prototypes. Express otherwise swaps the prototype of both on every request
 * (Object.setPrototypeOf), which V8 cannot optimize: measured, that swap cost more CPU than all
 * the rest Express does for a request. With the prototype already in place the swap is a no-op.
 */
export function createHttpServer(app: Application, options: ServerOptions = {}): Server {
  // Express keeps them on the app (`app.request`, `app.response`); its typings do not say so.
  const { request, response } = app as unknown as { request?: object; response?: object };
  if (!request || !response || !isPlainFunction(IncomingMessage) || !isPlainFunction(ServerResponse)) return createServer(options, app);
  return createServer(
    {
      ...options,
      IncomingMessage: bornWith(IncomingMessage, request) as typeof IncomingMessage,
      ServerResponse: bornWith(ServerResponse, response) as unknown as typeof ServerResponse,
    },
    app,
  );
}
