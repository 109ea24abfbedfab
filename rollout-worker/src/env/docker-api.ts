/** The slice of the Docker Engine API (as dockerode exposes it) the provider uses. */
export interface DockerApi {
  listContainers(options: { all: boolean; filters: string }): Promise<ContainerSummary[]>;
  createContainer(options: ContainerSpec): Promise<ContainerHandle>;
  getContainer(id: string): ContainerHandle;
}

export interface ContainerSummary {
  Id: string;
  Labels: Record<string, string>;
  State: string;
}

export interface ContainerSpec {
  Image: string;
  name?: string;
  Labels: Record<string, string>;
  Env: string[];
  Cmd?: string[];
  ExposedPorts: Record<string, Record<string, never>>;
  HostConfig: { PortBindings: Record<string, { HostIp: string; HostPort: string }[]>; AutoRemove?: boolean };
}

export interface ContainerHandle {
  id: string;
  start(): Promise<unknown>;
  inspect(): Promise<{
    State: { Running: boolean; Status: string };
    NetworkSettings: { Ports: Record<string, { HostIp: string; HostPort: string }[] | null> };
  }>;
  stop(options?: { t: number }): Promise<unknown>;
  remove(options?: { force: boolean }): Promise<unknown>;
  logs(options: { stdout: boolean; stderr: boolean; tail: number }): Promise<Buffer | string>;
}
