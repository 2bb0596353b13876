/**
 * The simulated homeserver for the portal scenario, in a process of its own so that it does not share a core with
 * the load generator. Prints `{"url": …}` once listening; stops on SIGTERM or when its parent goes away.
 */
import { startHomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { BENCH_HS_ADMIN_TOKEN, BENCH_SERVER_NAME } from "./homeserver-constants.ts";

const hs = await startHomeserverSimulator({
  serverName: BENCH_SERVER_NAME,
  adminToken: BENCH_HS_ADMIN_TOKEN,
  rateLimit: false,
});
process.stdout.write(`${JSON.stringify({ url: hs.url })}\n`);
const stop = () => void hs.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("disconnect", stop);
