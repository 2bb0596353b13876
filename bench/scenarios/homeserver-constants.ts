/** Shared by the portal driver and the homeserver child: the simulated homeserver's name and admin token. */
export const BENCH_SERVER_NAME = "bench.test";
export const BENCH_HS_ADMIN_TOKEN = "bench-homeserver-admin-token";
