"""What a game looks like to a person, put together: the self-contained HTML pages
(``pages``: what every page shares, and writing one). Each game's own view (its replay's
data and page files, its trace, its sheet) is in its package, reached through its spec
(``GameSpec.view``)."""
