/**
 * @module mcp/tool-list
 * Every tool the service registers, once: the registry (mcp/tool-registry.ts) serves this list and
 * mcp/tool-prefix.ts derives from it the names TOOL_PREFIX applies to inside sentences.
 */
import type { ToolDefinition } from "./tool-definition";
import { consolidateMemoriesTool } from "./tools/consolidate-memories";
import { deleteMemoryTool } from "./tools/delete-memory";
import { fetchMemoryTool } from "./tools/fetch-memory";
import { forgetMemoriesTool } from "./tools/forget-memories";
import { listMemoriesTool } from "./tools/list-memories";
import { memoryHistoryTool } from "./tools/memory-history";
import { memoryStatsTool } from "./tools/memory-stats";
import { recallMemoryTool } from "./tools/recall-memory";
import { regenerateEmbeddingsTool } from "./tools/regenerate-embeddings";
import { restoreMemoryTool } from "./tools/restore-memory";
import { saveMemoryTool } from "./tools/save-memory";
import { searchMemoriesTool } from "./tools/search-memories";
import { summarizeConversationTool } from "./tools/summarize-conversation";
import { updateMemoryTool } from "./tools/update-memory";

export const TOOLS: readonly ToolDefinition[] = [
  saveMemoryTool,
  recallMemoryTool,
  updateMemoryTool,
  deleteMemoryTool,
  restoreMemoryTool,
  listMemoriesTool,
  forgetMemoriesTool,
  memoryHistoryTool,
  memoryStatsTool,
  summarizeConversationTool,
  consolidateMemoriesTool,
  regenerateEmbeddingsTool,
  searchMemoriesTool,
  fetchMemoryTool,
];
