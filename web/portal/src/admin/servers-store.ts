import { createStore, useStore } from "../../../common/store.ts";
import { listServers, type ServerRecord } from "./api.ts";
import { selectedServer } from "./selected-server.ts";

interface ServersState {
  list: ServerRecord[] | null;
  error: Error | null;
  loading: boolean;
}

/** The managed servers, loaded once by the shell and again after any change to them (the selector uses them). */
export const servers = createStore<ServersState>({ list: null, error: null, loading: false });

export async function loadServers(): Promise<ServerRecord[] | null> {
  servers.set((s) => ({ ...s, loading: true }));
  try {
    const list = await listServers();
    servers.set({ list, error: null, loading: false });
    const chosen = selectedServer.get();
    if (!chosen || !list.some((server) => server.id === chosen)) {
      selectedServer.set(list.find((server) => server.isDefault)?.id ?? list[0]?.id ?? null);
    }
    return list;
  } catch (error) {
    servers.set((s) => ({ ...s, error: error as Error, loading: false }));
    return null;
  }
}

/** The selected server's record (undefined while loading or when there is none). */
export function useSelectedServer(): { server: ServerRecord | undefined; state: ServersState } {
  const state = useStore(servers);
  const id = useStore(selectedServer);
  return { server: state.list?.find((s) => s.id === id), state };
}
