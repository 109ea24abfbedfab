import type { Server } from 'node:http';
import { GauntletError } from '@gauntlet/proto';

/** The server could not take its address (in use, not allowed): one line for the user, naming the flag. */
export class ListenError extends GauntletError {
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

/** Starts `server` on host:port; a port in use or not allowed becomes a ListenError naming --port/--host. */
export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === 'EADDRINUSE')
        reject(
          new ListenError(`--port ${port}: ${where} is already in use (pick another --port, or 0 for any free one)`),
        );
      else if (error.code === 'EACCES')
        reject(new ListenError(`--port ${port}: not allowed to listen on ${where} (ports below 1024 need privileges)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new ListenError(`--host ${host}: not an address of this machine (${error.code})`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}
