"""What a Carpe Diem game looks like to a person: the trace text, the HTML replay's data and
the component sheet's (the pages themselves are drawn by ``cdsim.view.pages``)."""
