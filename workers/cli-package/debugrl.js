#!/usr/bin/env node
// `npx debugrl …` lands here; the CLI itself is compiled TypeScript in lib/.
require('../../lib/workers/cli.js');
