"""SGLang knowledge: option tables, entry points, models, the start-up decision."""
