import { describeEnvClientConformance } from './conformance.js';

describeEnvClientConformance('http');
