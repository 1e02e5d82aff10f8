import type { createApi } from '#bff/api/api.ts';

/** The API's type for Hono's typed client (`hc<ApiType>('/api/v1')`): the SPA's only import from bff/. */
export type ApiType = ReturnType<typeof createApi>;
