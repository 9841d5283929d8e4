// The TypeScript SDK's client against `memgit mcp`: lists and gets the prompts, lists and reads
// the resources, and reports what a refused call answered. Prints one JSON object.
// Usage: node mcp_prompts_resources.mjs PYTHON WORKSPACE [memgit mcp options...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [python, cwd, ...serverArgs] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: python,
  args: ["-m", "memgit", "mcp", ...serverArgs],
  cwd,
  env: process.env,
  stderr: "ignore",
});
const client = new Client({ name: "memgit-ts-test", version: "1.0.0" });
await client.connect(transport);

async function refusal(call) {
  try {
    await call();
    return null;
  } catch (error) {
    return { code: error.code, message: error.message };
  }
}

const out = {};
out.capabilities = client.getServerCapabilities();
out.prompts = (await client.listPrompts()).prompts;
out.flush = await client.getPrompt({ name: "memory_flush", arguments: { date: process.env.TEST_DAY, focus: "the cutover" } });
out.start = await client.getPrompt({ name: "session_start", arguments: { budget: "4000" } });
out.resources = (await client.listResources()).resources;
out.templates = (await client.listResourceTemplates()).resourceTemplates;
out.reads = {};
for (const resource of out.resources) {
  out.reads[resource.uri] = (await client.readResource({ uri: resource.uri })).contents;
}
out.byDate = (await client.readResource({ uri: `memgit://daily/${process.env.TEST_DAY}` })).contents;
out.memoryRefused = await refusal(() => client.readResource({ uri: "memgit://file/MEMORY.md" }));
out.unknownUri = await refusal(() => client.readResource({ uri: "memgit://file/../etc/passwd" }));
out.unknownPrompt = await refusal(() => client.getPrompt({ name: "no_such_prompt" }));
out.badDate = await refusal(() => client.getPrompt({ name: "memory_flush", arguments: { date: "tomorrow" } }));
await client.close();
console.log(JSON.stringify(out));
