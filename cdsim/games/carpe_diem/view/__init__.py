"""What a Carpe Diem game looks like to a person: the trace text and the HTML replay's data
(the page itself is drawn by ``cdsim.view.pages``)."""
