export { ModelRouter, routeVoices, type ModelRoute, type RouteTargetConfig } from './model-router';
