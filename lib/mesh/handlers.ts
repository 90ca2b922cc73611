/** Importing this module registers every mesh handler (the CLI imports it). */
export {};
