import { describeEnvClientConformance } from './conformance.js';

describeEnvClientConformance('grpc');
