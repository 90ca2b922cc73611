// Every test process has the three APIs' profiles registered, as an app that loads cdk-converge has
// (lib/index.ts loads every domain): a test may load one construct's module alone, and core reads
// the API's standard and token variables from the registered profiles (core names no API).
import '../../lib/platform/api-profile';
import '../../lib/secrets/api-profile';
import '../../lib/mesh/api-profile';
