"""Top customers by order value, with the legacy Flink DataSet Python API.

Sums the order amounts per customer, attaches the customer's name and country
with a join and prints the three biggest customers with their rank. Convert it with

    flink2spark convert examples/top_customers.py > top_customers_spark.py

and run the result with PySpark (python top_customers_spark.py).
"""
from flink.plan.Environment import get_environment
from flink.functions.GroupReduceFunction import GroupReduceFunction


class TopN(GroupReduceFunction):
    """Runs once over all customers and emits the n largest totals as
    (rank, name, country, total); ties are broken by name."""

    def __init__(self, n):
        super(TopN, self).__init__()
        self.n = n

    def reduce(self, iterator, collector):
        ranked = sorted(iterator, key=lambda c: (-c[2], c[0]))
        for rank, (name, country, total) in enumerate(ranked[:self.n], start=1):
            collector.collect((rank, name, country, total))


def main():
    env = get_environment()

    # (customer id, name, country)
    customers = env.from_elements(
        (1, "Alice", "DE"),
        (2, "Bob", "FR"),
        (3, "Carol", "DE"),
        (4, "Dave", "US"),
        (5, "Erin", "FR"))

    # (order id, customer id, amount)
    orders = env.from_elements(
        (1001, 1, 120),
        (1002, 2, 80),
        (1003, 3, 200),
        (1004, 1, 40),
        (1005, 4, 150),
        (1006, 2, 90),
        (1007, 5, 30),
        (1008, 3, 15))

    # (customer id, total amount)
    totals = orders.project(1, 2).group_by(0).sum(1)

    totals \
        .join(customers).where(0).equal_to(0) \
        .using(lambda total, customer: (customer[1], customer[2], total[1])) \
        .reduce_group(TopN(3)) \
        .output()

    env.execute(local=True)


if __name__ == "__main__":
    main()
