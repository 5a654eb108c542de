"""`schemanav agent`: a local model navigates the schema with three tools, and every token it
spends is accounted for in a context receipt."""

from schemanav.agent.loop import AgentRun, run_agent
from schemanav.agent.receipt import Receipt, ToolCallRecord, TruncationWarning
from schemanav.agent.tools import SchemaTools, ToolResult

__all__ = [
    "AgentRun",
    "Receipt",
    "SchemaTools",
    "ToolCallRecord",
    "ToolResult",
    "TruncationWarning",
    "run_agent",
]
