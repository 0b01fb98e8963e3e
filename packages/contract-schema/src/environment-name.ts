/**
 * The longest environment name (`production`, `development`, …) any dcg API or tool accepts:
 * the one number the governance domain checks and every HTTP and MCP schema documents.
 *
 * @example
 * z.string().min(1).max(MAX_ENVIRONMENT_LENGTH);
 */
export const MAX_ENVIRONMENT_LENGTH = 200;
