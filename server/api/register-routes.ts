import type { IRouter, RequestHandler } from 'express';
import type { SchemaObject } from 'ajv';
import type { RouteDescription, RouteSecurity } from './route-description';

/**
 * A route's handler. Each declares its own path parameters (`Request<{ model: string }>`);
 * `never` accepts them all, and Express fills them from the route's path.
 */
export type RouteHandler = RequestHandler<never>;

/** What the table does not say: the handlers, the guard of each security kind, the body parser. */
export interface RouteWiring<Id extends string> {
  /** Each route's handler, or a chain that runs after the body is validated (limits, then the handler). */
  readonly handlers: Readonly<Record<Id, RouteHandler | readonly RouteHandler[]>>;
  readonly guards: Readonly<Record<RouteSecurity, readonly RequestHandler[]>>;
  /** Parses and validates a JSON body against the route's schema (compiled once, here at start). */
  readonly body: (schema: SchemaObject) => readonly RequestHandler[];
}

/**
 * Registers every route of the table, in order: guard, then body, then handler. On a router
 * mounted at `mountPath` (`/v1`), the table's full paths are registered without that prefix.
 */
export function registerRoutes<Id extends string>(target: IRouter, routes: Readonly<Record<Id, RouteDescription>>, wiring: RouteWiring<Id>, mountPath = ''): void {
  for (const id of Object.keys(routes) as Id[]) {
    const route = routes[id];
    if (!route.path.startsWith(`${mountPath}/`)) throw new Error(`Route ${id} (${route.path}) is not under ${mountPath}`);
    const handlers = [wiring.handlers[id]].flat() as unknown as RequestHandler[];
    const chain = [...wiring.guards[route.security], ...(route.requestBody ? wiring.body(route.requestBody.schema) : []), ...handlers];
    target[route.method](route.path.slice(mountPath.length), ...chain);
  }
}
