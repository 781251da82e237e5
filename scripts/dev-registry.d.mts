/** The types of `dev-registry.mjs`, for its test. */
export declare function dropStaleRegistryEntries(options: {
  dirs: (string | undefined)[];
  names: string[];
  dyingMs?: number;
  log?: (line: string) => void;
}): Promise<string[]>;
