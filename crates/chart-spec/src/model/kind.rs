//! The registered type names, parsed once by resolution: [`ChartKind`] (a controller:
//! `config.type`, `dataset.type`) and [`ScaleKind`] (`scales[id].type`).

/// A registered chart type, the name that picks a controller: `config.type` or
/// `dataset.type` (Chart.js's registry of controllers, the bundled plugin charts' included).
/// Resolution parses the name once; a name that is not registered never becomes a `Chart`
/// (it is Chart.js's `"x" is not a registered controller.` error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChartKind {
    /// `bar`: Chart.js `BarController`.
    Bar,
    /// `line`: `LineController`.
    Line,
    /// `scatter`: `ScatterController`.
    Scatter,
    /// `bubble`: `BubbleController`.
    Bubble,
    /// `doughnut`: `DoughnutController`.
    Doughnut,
    /// `pie`: `PieController` (a doughnut without cutout).
    Pie,
    /// `polarArea`: `PolarAreaController`.
    PolarArea,
    /// `radar`: `RadarController`.
    Radar,
    /// `matrix`: chartjs-chart-matrix.
    Matrix,
    /// `treemap`: chartjs-chart-treemap.
    Treemap,
    /// `sankey`: chartjs-chart-sankey.
    Sankey,
    /// `choropleth`: chartjs-chart-geo, areas coloured by value.
    Choropleth,
    /// `bubbleMap`: chartjs-chart-geo, bubbles on a map.
    BubbleMap,
    /// `wordCloud`: chartjs-chart-wordcloud.
    WordCloud,
    /// `venn`: chartjs-chart-venn, Venn layout.
    Venn,
    /// `euler`: chartjs-chart-venn, Euler layout.
    Euler,
    /// `tree`: chartjs-chart-graph, tree layout.
    Tree,
    /// `dendrogram`: chartjs-chart-graph, dendrogram layout.
    Dendrogram,
    /// `dendogram`: chartjs-chart-graph's misspelt alias of `dendrogram`, registered too.
    Dendogram,
    /// `graph`: chartjs-chart-graph, positions from the data.
    Graph,
    /// `forceDirectedGraph`: chartjs-chart-graph, positions from a force simulation.
    ForceDirectedGraph,
}

impl ChartKind {
    /// Every registered type.
    pub const ALL: [ChartKind; 21] = [
        ChartKind::Bar,
        ChartKind::Line,
        ChartKind::Scatter,
        ChartKind::Bubble,
        ChartKind::Doughnut,
        ChartKind::Pie,
        ChartKind::PolarArea,
        ChartKind::Radar,
        ChartKind::Matrix,
        ChartKind::Treemap,
        ChartKind::Sankey,
        ChartKind::Choropleth,
        ChartKind::BubbleMap,
        ChartKind::WordCloud,
        ChartKind::Venn,
        ChartKind::Euler,
        ChartKind::Tree,
        ChartKind::Dendrogram,
        ChartKind::Dendogram,
        ChartKind::Graph,
        ChartKind::ForceDirectedGraph,
    ];

    /// The registered type of this name (case-sensitive, as Chart.js's registry).
    pub fn from_name(name: &str) -> Option<ChartKind> {
        ChartKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name as written in a config.
    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Bar => "bar",
            ChartKind::Line => "line",
            ChartKind::Scatter => "scatter",
            ChartKind::Bubble => "bubble",
            ChartKind::Doughnut => "doughnut",
            ChartKind::Pie => "pie",
            ChartKind::PolarArea => "polarArea",
            ChartKind::Radar => "radar",
            ChartKind::Matrix => "matrix",
            ChartKind::Treemap => "treemap",
            ChartKind::Sankey => "sankey",
            ChartKind::Choropleth => "choropleth",
            ChartKind::BubbleMap => "bubbleMap",
            ChartKind::WordCloud => "wordCloud",
            ChartKind::Venn => "venn",
            ChartKind::Euler => "euler",
            ChartKind::Tree => "tree",
            ChartKind::Dendrogram => "dendrogram",
            ChartKind::Dendogram => "dendogram",
            ChartKind::Graph => "graph",
            ChartKind::ForceDirectedGraph => "forceDirectedGraph",
        }
    }
}

impl std::fmt::Display for ChartKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A registered scale type (`scales[id].type`), parsed once by resolution; an unregistered
/// name is Chart.js's `"x" is not a registered scale.` error and never becomes a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScaleKind {
    /// `category`: `CategoryScale`.
    Category,
    /// `linear`: `LinearScale`.
    Linear,
    /// `logarithmic`: `LogarithmicScale`.
    Logarithmic,
    /// `time`: `TimeScale`.
    Time,
    /// `timeseries`: `TimeSeriesScale` (ticks evenly spaced by index).
    TimeSeries,
    /// `radialLinear`: `RadialLinearScale`.
    RadialLinear,
}

impl ScaleKind {
    /// Every registered type.
    pub const ALL: [ScaleKind; 6] = [
        ScaleKind::Category,
        ScaleKind::Linear,
        ScaleKind::Logarithmic,
        ScaleKind::Time,
        ScaleKind::TimeSeries,
        ScaleKind::RadialLinear,
    ];

    /// The registered type of this name (case-sensitive, as Chart.js's registry).
    pub fn from_name(name: &str) -> Option<ScaleKind> {
        ScaleKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name as written in a config.
    pub fn name(self) -> &'static str {
        match self {
            ScaleKind::Category => "category",
            ScaleKind::Linear => "linear",
            ScaleKind::Logarithmic => "logarithmic",
            ScaleKind::Time => "time",
            ScaleKind::TimeSeries => "timeseries",
            ScaleKind::RadialLinear => "radialLinear",
        }
    }
}

impl std::fmt::Display for ScaleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
