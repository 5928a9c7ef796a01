import { authRoutes } from './auth.js';
import { healthRoutes } from './health.js';
import type { RouteSpec } from './route.js';
import { systemHashingRoutes } from './system-hashing.js';

/** The whole route table of the API, under /api/v1. */
export const ROUTES: RouteSpec[] = [...healthRoutes, ...authRoutes, ...systemHashingRoutes];
