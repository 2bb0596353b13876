import { upgradeWebSocket, type WebSocketLike } from "@hono/node-server";
import { Hono } from "hono";
import type { WSContext } from "hono/ws";
import type { WebSocket } from "ws";
import { HttpError } from "../../../lib/http-error.ts";
import type { LiveChannel } from "./live-channel.ts";
import type { LiveConnection, LiveSocket } from "./live-protocol.ts";

const OPEN = 1;

/** Hono's socket context → the channel's socket; the raw socket is a `ws` WebSocket (lib/http-server.ts). */
function liveSocket(ws: WSContext<WebSocketLike>): LiveSocket {
  const raw = ws.raw as unknown as WebSocket;
  return {
    get isOpen() {
      return raw.readyState === OPEN;
    },
    get bufferedAmount() {
      return raw.bufferedAmount;
    },
    send: (text) => raw.send(text),
    close: (code, reason) => raw.close(code, reason),
    terminate: () => raw.terminate(),
  };
}

/**
 * `GET /api/ws`: the live WebSocket (protocol in live-protocol.ts and docs/live-channel.md). The upgrade is an
 * ordinary request until it succeeds, so the allow-list, Origin (CSRF) and Basic auth middleware in front of it
 * apply; under the ingress proxy the UI connects to the relative URL `api/ws` and arrives here as `/api/ws`. A plain
 * GET gets 426. Messages over 64 KiB never reach it (lib/http-server.ts).
 */
export function liveRoutes(channel: LiveChannel): Hono {
  const app = new Hono();
  app.get(
    "/",
    upgradeWebSocket(() => {
      let connection: LiveConnection | undefined;
      return {
        onOpen: (_event, ws) => {
          connection = channel.attach(liveSocket(ws));
        },
        onMessage: (event, _ws) => connection?.receive(event.data),
        onClose: () => connection?.closed(),
      };
    }),
    () => {
      throw new HttpError(426, "This endpoint only speaks WebSocket: send an Upgrade: websocket request", "UPGRADE_REQUIRED", {
        Upgrade: "websocket",
      });
    },
  );
  return app;
}
