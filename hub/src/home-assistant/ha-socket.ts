import { ERR_CANNOT_CONNECT, ERR_INVALID_AUTH, type HaWebSocket } from "home-assistant-js-websocket";
import { WebSocket } from "ws";

/**
 * Opens one authenticated WebSocket to Home Assistant, for home-assistant-js-websocket's `createSocket` option.
 * We use the `ws` package rather than a global WebSocket: Node's built-in client dropped connections under load in a
 * peer project, and `ws` lets us time-box the connect. `http://supervisor/core` (the add-on proxy) and a direct
 * `http://host:8123` both serve `<url>/api/websocket`. Rejects with the library's ERR_INVALID_AUTH or
 * ERR_CANNOT_CONNECT so its reconnect logic treats them the usual way.
 */
export function openHaSocket(url: string, token: string, connectTimeoutMs = 10_000): Promise<HaWebSocket> {
  const wsUrl = `${url.replace(/^http/i, "ws").replace(/\/+$/, "")}/api/websocket`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, { handshakeTimeout: connectTimeoutMs, perMessageDeflate: false });
    let settled = false;
    const fail = (code: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.terminate();
      reject(code);
    };
    // Covers a server that accepts the upgrade but never finishes the auth phase.
    const timer = setTimeout(() => fail(ERR_CANNOT_CONNECT), connectTimeoutMs);
    socket.on("error", () => fail(ERR_CANNOT_CONNECT));
    socket.on("close", () => fail(ERR_CANNOT_CONNECT));
    socket.on("message", function onMessage(data) {
      let message: { type?: string; ha_version?: string };
      try {
        message = JSON.parse(String(data));
      } catch {
        return fail(ERR_CANNOT_CONNECT);
      }
      if (message.type === "auth_required") {
        socket.send(JSON.stringify({ type: "auth", access_token: token }));
      } else if (message.type === "auth_invalid") {
        fail(ERR_INVALID_AUTH);
      } else if (message.type === "auth_ok") {
        settled = true;
        clearTimeout(timer);
        socket.off("message", onMessage);
        socket.removeAllListeners("error");
        socket.removeAllListeners("close");
        // The library reads the version from the socket, and coalesced frames save work on busy homes.
        const haSocket = socket as unknown as HaWebSocket;
        haSocket.haVersion = message.ha_version ?? "0.0.0";
        socket.send(JSON.stringify({ type: "supported_features", id: 1, features: { coalesce_messages: 1 } }));
        resolve(haSocket);
      }
    });
  });
}
