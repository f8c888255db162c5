"""What a seat's play looks like to a person: the trace text, the HTML replay, the pages."""
