#!/usr/bin/env node
// The dcg-kg command: apps/kg-api's CLI, bundled (see tsup.config.ts).
import '@dcg/kg-api/cli-main';
